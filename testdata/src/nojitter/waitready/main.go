// Command waitready starts a few services and waits until each has registered.
package main

import (
	"fmt"
	"log"
	"os"
	"time"

	"example.com/discovery"
)

// ---- Not reported: the registry polled is the in-process one main hands in ----

func waitFor(reg discovery.Registry, names ...string) error {
	deadline := time.Now().Add(5 * time.Second)
	for _, name := range names {
		for {
			svcs, err := reg.GetService(name)
			if err == nil && len(svcs) > 0 && len(svcs[0].Nodes) > 0 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("timed out waiting for %s on %s", name, reg)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// watcher keeps the registry it was made with.
type watcher struct {
	reg   discovery.Registry
	every time.Duration
}

// ---- Not reported: the field holds only the in-process registry ----

func (w *watcher) until(name string, stop <-chan struct{}) bool {
	for i := 0; i < 50; i++ {
		if svcs, err := w.reg.GetService(name); err == nil && len(svcs) > 0 {
			return true
		}
		select {
		case <-stop:
			return false
		case <-time.After(w.every):
		}
	}
	return false
}

// ---- Reported: this one polls the registry server ----

func waitRemote(reg discovery.Registry, name string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		svcs, err := reg.GetService(name)
		if err == nil && len(svcs) > 0 {
			log.Printf("%s is up on %d nodes", name, len(svcs[0].Nodes))
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out waiting for %s: %v", name, err)
		}
		time.Sleep(500 * time.Millisecond) // related "main.go:58: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
	}
}

func main() {
	reg := discovery.NewMemoryRegistry()
	for _, name := range []string{"notes", "assistant"} {
		go func() {
			if err := reg.Register(&discovery.Service{Name: name, Nodes: []*discovery.Node{{ID: name + "-1"}}}); err != nil {
				log.Printf("register %s: %v", name, err)
			}
		}()
	}
	if err := waitFor(reg, "notes", "assistant"); err != nil {
		log.Fatal(err)
	}
	w := &watcher{reg: reg, every: 10 * time.Millisecond}
	if !w.until("notes", nil) {
		log.Fatal("notes went away")
	}
	if len(os.Args) > 1 {
		if err := waitRemote(discovery.NewHTTPRegistry(os.Args[1]), "billing"); err != nil {
			log.Fatal(err)
		}
	}
}
