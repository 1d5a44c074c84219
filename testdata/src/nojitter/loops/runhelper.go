package loops

import (
	"fmt"
	"log"
	"time"
)

// RunWithRetry is a generic helper of a utility package: it retries the callback it is handed
// (func() error), a fixed delay apart. Nothing in view hands it remote work (its only caller
// here renders a template), so it protects no remote dependency that the analysis can see:
// not reported here; a caller in another package that hands it a request is reported there.
func RunWithRetry(attempts int, wait time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		log.Printf("attempt %d of %d failed: %v", i+1, attempts, err)
		time.Sleep(wait)
	}
	return fmt.Errorf("after %d attempts: %w", attempts, err)
}

func renderAll(names []string, render func(string) error) error {
	for _, n := range names {
		if err := RunWithRetry(3, time.Second, func() error { return render(n) }); err != nil {
			return err
		}
	}
	return nil
}
