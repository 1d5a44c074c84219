// Command serve runs the notification service until it is interrupted.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"notimeout/servicerun/notify"
	"notimeout/servicerun/sched"
)

func main() {
	dsn := flag.String("db", "postgres://localhost/notify", "database")
	hook := flag.String("webhook", "", "webhook URL")
	once := flag.Bool("once", false, "deliver what is pending for at most five minutes, then exit")
	flush := flag.Bool("flush", false, "submit the queued tasks, then exit")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Error("open database", "err", err)
		os.Exit(1)
	}
	defer db.Close()
	ns := notify.New(notify.Config{WebhookURL: *hook, WebhookSecret: os.Getenv("WEBHOOK_SECRET"), Interval: 10 * time.Second}, db, log)

	if *once {
		drain(ns, log)
		return
	}
	if *flush {
		sc := sched.New(db, log, os.Getenv("EXECUTOR_TOKEN"))
		if err := sc.Flush(context.Background()); err != nil { // related "sched.go:67: Scheduler.Flush passes its context to DB.QueryContext" "main.go:39: context.Background() has no deadline" // want `Scheduler\.Flush passes a context without a deadline to DB\.QueryContext, so a stalled database hangs this call`
			log.Error("flush", "err", err)
			os.Exit(1)
		}
		return
	}

	ctx := context.Background()
	errCh := make(chan error, 2)
	sc := sched.New(db, log, os.Getenv("EXECUTOR_TOKEN"))
	go func() { errCh <- sc.Run(ctx) }() // the services' lifetime: their loops run until it ends
	go func() { errCh <- ns.Run(ctx) }()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	select {
	case <-sig:
	case err := <-errCh:
		log.Error("notification service", "err", err)
	}
}

// drain runs the service under a deadline: every delivery ends with it.
func drain(ns *notify.Service, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := ns.Run(ctx); err != nil {
		log.Error("drain", "err", err)
	}
}
