//! A statement built in pieces with its parameters, as sqlx's
//! `QueryBuilder` builds one, in a form that code generic over the database
//! can run: `QueryBuilder::build` borrows the builder for as long as the
//! values it holds, which a generic database's argument type (whose
//! lifetime Rust cannot shorten) turns into a borrow that outlives the
//! builder. Here the text and the arguments are taken apart instead:
//!
//! ```ignore
//! let (sql, arguments) = statement.into_parts()?;
//! sqlx::query_with(&sql, arguments).execute(&mut *tx).await?;
//! ```

use sqlx::{Arguments, Database, Encode, Type};
use std::fmt::{Display, Write};

/// SQL text and the values of its parameters.
pub struct Statement<'q, DB: Database> {
    sql: String,
    arguments: <DB as Database>::Arguments<'q>,
    /// The first value that could not be encoded.
    error: Option<sqlx::error::BoxDynError>,
}

impl<'q, DB: Database> Statement<'q, DB> {
    /// A statement that starts with `sql`.
    pub fn new(sql: impl Into<String>) -> Self {
        Statement {
            sql: sql.into(),
            arguments: Default::default(),
            error: None,
        }
    }

    /// Appends SQL text.
    pub fn push(&mut self, sql: impl Display) -> &mut Self {
        write!(self.sql, "{sql}").expect("writing to a String never fails");
        self
    }

    /// Appends a parameter (`?` or `$n`, as the database writes them) bound
    /// to `value`.
    pub fn push_bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'q + Encode<'q, DB> + Type<DB>,
    {
        if let Err(error) = self.arguments.add(value) {
            self.error.get_or_insert(error);
        }
        self.arguments
            .format_placeholder(&mut self.sql)
            .expect("writing to a String never fails");
        self
    }

    /// Appends `(p, p, …)`, one parameter per value.
    pub fn push_list<T>(&mut self, values: impl IntoIterator<Item = T>) -> &mut Self
    where
        T: 'q + Encode<'q, DB> + Type<DB>,
    {
        self.push("(");
        for (n, value) in values.into_iter().enumerate() {
            if n > 0 {
                self.push(", ");
            }
            self.push_bind(value);
        }
        self.push(")")
    }

    /// Appends `VALUES (…), (…)`: one tuple per row, whose values
    /// `push_row` binds with [`Tuple::bind`].
    pub fn push_values<I, F>(&mut self, rows: I, mut push_row: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(&mut Tuple<'_, 'q, DB>, I::Item),
    {
        self.push("VALUES ");
        for (n, row) in rows.into_iter().enumerate() {
            self.push(if n > 0 { ", (" } else { "(" });
            push_row(
                &mut Tuple {
                    statement: self,
                    first: true,
                },
                row,
            );
            self.push(")");
        }
        self
    }

    /// The text and the arguments, to run with `sqlx::query_with` (or
    /// `query_as_with`, `query_scalar_with`); an encoding error if a value
    /// could not be bound.
    pub fn into_parts(self) -> Result<(String, <DB as Database>::Arguments<'q>), sqlx::Error> {
        match self.error {
            Some(error) => Err(sqlx::Error::Encode(error)),
            None => Ok((self.sql, self.arguments)),
        }
    }
}

/// The values of one row of [`Statement::push_values`].
pub struct Tuple<'s, 'q, DB: Database> {
    statement: &'s mut Statement<'q, DB>,
    first: bool,
}

impl<'q, DB: Database> Tuple<'_, 'q, DB> {
    /// Appends a value to the row.
    pub fn bind<T>(&mut self, value: T) -> &mut Self
    where
        T: 'q + Encode<'q, DB> + Type<DB>,
    {
        if !std::mem::take(&mut self.first) {
            self.statement.push(", ");
        }
        self.statement.push_bind(value);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_written_as_the_database_writes_them() {
        let mut sqlite = Statement::<sqlx::Sqlite>::new("SELECT 1 WHERE id IN ");
        sqlite
            .push_list([1_i64, 2])
            .push(" AND name = ")
            .push_bind("x");
        let (sql, arguments) = sqlite.into_parts().unwrap();
        assert_eq!(sql, "SELECT 1 WHERE id IN (?, ?) AND name = ?");
        assert_eq!(arguments.len(), 3);

        let mut postgres = Statement::<sqlx::Postgres>::new("INSERT INTO t (a, b) ");
        postgres.push_values([(1_i64, "x"), (2, "y")], |row, (a, b)| {
            row.bind(a).bind(b);
        });
        let (sql, _) = postgres.into_parts().unwrap();
        assert_eq!(sql, "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)");
    }
}
