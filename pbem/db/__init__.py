"""Storage: the peewee models and the connection to SQLite or PostgreSQL (transactions,
migrations). Imports nothing of pbem above the games."""
