// Command payments is a small payments service that uses runtime/idempotency end to end. See
// README.md for its interface; the end-to-end tests in this directory drive it as a subprocess.
//
//	go run ./examples/payments -addr 127.0.0.1:8080 -store memory
//	go run ./examples/payments -addr 127.0.0.1:8080 -store postgres -dsn postgres://... -lease 2s
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/idemlint/idemlint/examples/payments/internal/service"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
	"github.com/idemlint/idemlint/runtime/idempotency/pgstore"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "payments:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0 picks a free port; the address is printed)")
	storeKind := flag.String("store", "memory", "idempotency store and data: memory or postgres")
	dsn := flag.String("dsn", "", "PostgreSQL DSN (with -store postgres)")
	lease := flag.Duration("lease", idempotency.DefaultLease, "lease of a request's key: a crashed request can be resumed this long after its last heartbeat")
	retention := flag.Duration("retention", idempotency.DefaultRetention, "how long keys are remembered")
	chargeDelay := flag.Duration("charge-delay", 0, "sleep between recording a payment and charging it (for tests)")
	crashAfterCharge := flag.Bool("crash-after-charge", false, "kill the process with SIGKILL right after the provider accepted a charge, before it is recorded (for tests)")
	reapEvery := flag.Duration("reap-every", time.Minute, "how often expired keys are deleted")
	flag.Parse()

	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	cfg := service.Config{
		Lease:       *lease,
		Retention:   *retention,
		ChargeDelay: *chargeDelay,
		Logger:      log,
	}
	if *crashAfterCharge {
		cfg.AfterCharge = func() {
			log.Warn("payments: -crash-after-charge: killing the process")
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // wait for the signal
		}
	}
	switch *storeKind {
	case "memory":
		cfg.Store = memstore.New()
		cfg.Repo = service.NewMemoryRepo()
		cfg.Provider = service.NewMemoryProvider()
	case "postgres":
		if *dsn == "" {
			return errors.New("-store postgres needs -dsn")
		}
		pool, err := pgxpool.New(ctx, *dsn)
		if err != nil {
			return fmt.Errorf("connecting to PostgreSQL: %w", err)
		}
		defer pool.Close()
		store := pgstore.New(pool)
		mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = store.Migrate(mctx)
		if err == nil {
			err = service.MigratePostgres(mctx, pool)
		}
		cancel()
		if err != nil {
			return fmt.Errorf("migrating: %w", err)
		}
		cfg.Store = store
		cfg.Repo = service.PostgresRepo{Pool: pool}
		cfg.Provider = service.PostgresProvider{Pool: pool}
	default:
		return fmt.Errorf("-store must be memory or postgres, not %q", *storeKind)
	}

	go idempotency.RunReaper(ctx, cfg.Store, *reapEvery, log)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           service.New(cfg).Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	// The end-to-end tests wait for this line.
	fmt.Printf("listening on %s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
