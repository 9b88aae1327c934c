"""Mail: outbox rows turned into messages (rendered outside the game's lock), and SMTP."""
