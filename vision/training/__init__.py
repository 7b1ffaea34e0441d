"""What makes and measures the models, never run at a table: training (finder, reader,
suit reader, box refiner), 8-bit quantizing, and honest evaluation on held-out sets."""
