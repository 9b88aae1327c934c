"""SQL built once: the queries and writes pbem runs on every page, move or mail, with their
SQL kept per kind of database instead of built by peewee from its expression tree each time.
`Prepared` runs a read; `save_whole` and `create_whole` do what a model's `save()` and
`create()` do, the same UPDATE and INSERT. Every other query is peewee's own."""
from __future__ import annotations

import peewee as pw

from .models import db


class Prepared:
    """A read query that the pages run on every request, with its SQL built once per kind of
    database. Peewee builds a query's SQL from its expression tree each time it runs, which
    takes ~0.3 ms — about twenty times what SQLite takes to answer it; a turn page runs eight.

    `build` takes one marker per parameter (`arity` of them when it takes *args) and returns
    the peewee query; the marker values (large, unlikely numbers) are found again among the
    built query's parameters. Everything else the query holds is a constant of its SQL.
    Calling it with the real values runs the SQL as a raw query of `model`: rows come back as
    model instances, converted by the fields.
    """

    MARK = 7_302_900_000_000_001     # the first marker; then MARK + 1, MARK + 2, ...

    def __init__(self, model, build, arity: int | None = None):
        self.model, self.build = model, build
        self.arity = build.__code__.co_argcount if arity is None else arity
        self._built: dict = {}
        self._reading: dict = {}

    def _sql(self):
        kind = type(db.obj)
        built = self._built.get(kind)
        if built is None:
            marks = [self.MARK + k for k in range(self.arity)]
            sql, params = self.build(*marks).sql()
            slots = [next((k for k, m in enumerate(marks) if str(p) == str(m)), None)
                     for p in params]
            if sorted(k for k in slots if k is not None) != list(range(self.arity)):
                raise ValueError("a prepared query must use each of its parameters once")
            built = self._built[kind] = (sql, [(k, p) for k, p in zip(slots, params)])
        return built

    def _params(self, values) -> tuple[str, list]:
        sql, slots = self._sql()
        return sql, [values[k] if k is not None else p for k, p in slots]

    def __call__(self, *values) -> pw.ModelRaw:
        sql, params = self._params(values)
        return self.model.raw(sql, *params)

    def tuples(self, *values) -> list[tuple]:
        """The rows as the database gives them, no field converting them: for a page's
        hottest query, whose caller reads what it needs itself (a boolean comes as 0 or 1
        from SQLite, a JSON field as its text)."""
        sql, params = self._params(values)
        return db.execute_sql(sql, params).fetchall()

    def models(self, *values) -> list:
        """The rows as instances of `model`, each column converted by its field: what
        running the SQL as a raw query of the model gives, built here. Peewee's cursor
        wrapper works out which field reads which column anew for every query, which costs
        ten times what reading a game's or its seats' rows does; here it is worked out once
        per kind of database."""
        sql, params = self._params(values)
        cursor = db.execute_sql(sql, params)
        kind = type(db.obj)
        reading = self._reading.get(kind)
        if reading is None:
            reading = self._reading[kind] = self._read_as(cursor.description)
        out = []
        for row in cursor.fetchall():
            instance = self.model(__no_default__=1)
            data = instance.__data__
            for (name, convert), value in zip(reading, row):
                if convert is None:
                    setattr(instance, name, value)      # a column no field reads (an alias)
                else:
                    data[name] = convert(value)
            out.append(instance)
        return out

    def _read_as(self, description) -> list[tuple[str, object]]:
        """(the field's name and its python_value, or the column's name and None) of each
        column, found as peewee finds them for a raw query."""
        combined = self.model._meta.combined
        reading = []
        for item in description:
            column = item[0]
            column = column[column.rfind(".") + 1:].strip('()"`')
            field = combined.get(column)
            reading.append((field.name, field.python_value) if field is not None
                           else (column, None))
        return reading

    def value(self, *values):
        """The first column of the first row as the database gives it, or None: for a lookup
        of one value on every page (no model instance built)."""
        rows = self.tuples(*values)
        return rows[0][0] if rows else None

    def first(self, *values):
        """The first row, or None. Every row is read, so no cursor is left half-way open (with
        SQLite an unfinished statement holds its read lock): give the query a limit."""
        rows = self.models(*values)
        return rows[0] if rows else None


def save_whole(instance) -> int:
    """`instance.save()` for a row stored already (its primary key set), as peewee does it for
    a model saved whole: one UPDATE of every column of the instance's data, each value
    converted by its field. Its SQL is built once per kind of database, model and set of
    columns: peewee's building of it cost more than the write itself (a game's row, saved on
    every move). Anything else (no key yet, only_save_dirty, a composite key) is peewee's."""
    model = type(instance)
    meta = model._meta
    pk = meta.primary_key
    data = instance.__data__
    if pk is False or meta.composite_key or meta.only_save_dirty or data.get(pk.name) is None:
        return instance.save()
    names = tuple(name for name in data if name != pk.name)
    database = db.obj
    key = (type(database), model, names)
    sql = _UPDATES.get(key)
    if sql is None:
        quote, param = _quoter(database), database.param
        columns = ", ".join(f"{quote(meta.fields[name].column_name)} = {param}" for name in names)
        sql = _UPDATES[key] = (f"UPDATE {quote(meta.table_name)} SET {columns} "
                               f"WHERE {quote(pk.column_name)} = {param}")
    params = _db_values(meta, data, names)
    params.append(pk.db_value(data[pk.name]))
    rows = db.execute_sql(sql, params).rowcount
    instance._dirty -= set(names)
    return rows


_UPDATES: dict = {}     # (kind of database, model, columns) -> the UPDATE's SQL


def create_whole(model, **values):
    """`model.create(**values)` as peewee does it for a model with an auto-incrementing key:
    an instance with its defaults, one INSERT of every column of its data (each value
    converted by its field), the new key read back (RETURNING where the database has it). Its
    SQL is built once per kind of database, model and set of columns (an event and its mails,
    on every move). Anything else is peewee's."""
    instance = model(**values)
    meta = model._meta
    pk = meta.primary_key
    data = instance.__data__
    if (pk is False or meta.composite_key or not meta.auto_increment
            or data.get(pk.name) is not None):
        instance.save(force_insert=True)
        return instance
    names = tuple(name for name in data if name != pk.name)
    database = db.obj
    key = (type(database), model, names)
    sql = _INSERTS.get(key)
    if sql is None:
        quote = _quoter(database)
        columns = ", ".join(quote(meta.fields[name].column_name) for name in names)
        sql = (f"INSERT INTO {quote(meta.table_name)} ({columns}) "
               f"VALUES ({', '.join([database.param] * len(names))})")
        if database.returning_clause:
            sql += f" RETURNING {quote(pk.column_name)}"
        _INSERTS[key] = sql
    cursor = db.execute_sql(sql, _db_values(meta, data, names))
    instance._pk = cursor.fetchone()[0] if database.returning_clause else cursor.lastrowid
    instance._dirty.clear()
    return instance


_INSERTS: dict = {}     # (kind of database, model, columns) -> the INSERT's SQL


def _quoter(database):
    """A name quoted as the database quotes it ("name" on SQLite and PostgreSQL)."""
    open_, close = database.quote[0], database.quote[1]
    return lambda name: f"{open_}{name}{close}"


def _db_values(meta, data: dict, names) -> list:
    """The columns' values as the database stores them, each converted by its field."""
    fields = meta.fields
    return [fields[name].db_value(data[name]) for name in names]
