"""The producer's name and version, as recorded in every certificate's ``producer`` field."""

__version__ = "0.1.0"
NAME = "dp-certify-producer"
