// Package run starts a service's background workers.
package run

import "sync"

// GoWait runs f in a goroutine that wg waits for.
func GoWait(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		f()
	}()
}
