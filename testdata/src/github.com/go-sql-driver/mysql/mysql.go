// Package mysql is a stub of github.com/go-sql-driver/mysql, a database/sql driver for MySQL.
package mysql

type MySQLDriver struct{}
