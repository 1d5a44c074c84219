// Command migrate applies the migrations; nothing is reported here: the loop that does not
// end with its context is lockspin's.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"

	"nojitter/lockspin"
)

func main() {
	dsn := flag.String("db", "postgres://localhost/app", "database")
	flag.Parse()
	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if err := lockspin.ApplyAll(context.Background(), db, flag.Args()); err != nil {
		log.Fatal(err)
	}
}
