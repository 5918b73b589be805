#![forbid(unsafe_code)]
//! `#[sqlx_bounds(D)]`: adds to an `impl` block over a dialect `D` of
//! `intake-store-sql` the sqlx capabilities its code uses (executing on a
//! connection, binding arguments, reading columns by name and index, and the
//! Rust types it binds and reads as [`Column`]s of `D::Db`).
//!
//! Rust does not carry bounds on other types (`String: Column<D::Db>`) over
//! from a trait to its users (rust-lang/rust#20671): a trait bundling them
//! would still have them repeated at every use. This attribute is where they
//! are written, once. It names `crate::Column`, so it is for
//! `intake-store-sql` itself.
//!
//! [`Column`]: https://docs.rs/intake-store-sql/latest/intake_store_sql/dialect/trait.Column.html

use proc_macro::TokenStream;
use quote::ToTokens;
use syn::{parse_macro_input, parse_quote, Ident, ItemImpl, WhereClause};

/// Adds the sqlx bounds over the dialect named in the attribute (`D`) to the
/// `where` clause of the `impl` block it is put on.
#[proc_macro_attribute]
pub fn sqlx_bounds(attribute: TokenStream, item: TokenStream) -> TokenStream {
    let d = parse_macro_input!(attribute as Ident);
    let mut block = parse_macro_input!(item as ItemImpl);
    let bounds: WhereClause = parse_quote! {
        where
            for<'c> &'c mut <#d::Db as ::sqlx::Database>::Connection:
                ::sqlx::Executor<'c, Database = #d::Db>,
            for<'q> <#d::Db as ::sqlx::Database>::Arguments<'q>: ::sqlx::IntoArguments<'q, #d::Db>,
            for<'s> &'s str: ::sqlx::ColumnIndex<<#d::Db as ::sqlx::Database>::Row>
                + ::sqlx::Encode<'s, #d::Db>
                + ::sqlx::Type<#d::Db>,
            usize: ::sqlx::ColumnIndex<<#d::Db as ::sqlx::Database>::Row>,
            String: crate::Column<#d::Db>,
            Option<String>: crate::Column<#d::Db>,
            Vec<u8>: crate::Column<#d::Db>,
            i64: crate::Column<#d::Db>,
            i32: crate::Column<#d::Db>,
            Option<i32>: crate::Column<#d::Db>,
            f64: crate::Column<#d::Db>,
            Option<f64>: crate::Column<#d::Db>,
            bool: crate::Column<#d::Db>,
            ::time::OffsetDateTime: crate::Column<#d::Db>,
            Option<::time::OffsetDateTime>: crate::Column<#d::Db>,
            ::time::Date: crate::Column<#d::Db>,
    };
    block
        .generics
        .make_where_clause()
        .predicates
        .extend(bounds.predicates);
    block.into_token_stream().into()
}
