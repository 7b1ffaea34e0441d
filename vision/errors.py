"""Errors a user's mistake can cause deep in the vision code, kept in a module of their own so
the command line can name them without loading the models' code to do so."""


class DatasetError(ValueError):
    """A file given as a dataset YAML that is not one, or lacks the images asked for."""
