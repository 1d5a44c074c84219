// Command app refunds a charge through the shop package, retrying the refund itself: its
// attempts multiply with the retry inside shop.Refund, which the map sees through the fact on
// Refund.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"time"

	"depmap/shop"
)

func main() {
	charge := flag.String("charge", "", "the charge to refund")
	flag.Parse()
	db, err := sql.Open("postgres", "postgres:///shop")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := shop.New(db)
	for attempt := 1; ; attempt++ {
		err = s.Refund(ctx, *charge)
		if err == nil || attempt == 2 {
			break
		}
		log.Printf("refund %s: attempt %d: %v", *charge, attempt, err)
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	if err != nil {
		log.Fatal(err)
	}
}
