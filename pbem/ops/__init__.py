"""Operations: the `pbem` command line, checks, backup and restore, the development server."""
