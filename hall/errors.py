"""The one error the hall commands raise for something the user can fix."""


class HallError(ValueError):
    """A bad broker address, an unreachable broker, a bad name: printed as one line."""
