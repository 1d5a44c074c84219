// Package certwatch keeps a proxy's certificates up to date from a certificate store: watch
// loads them every refresh, and sends them on when they change. With a refresh of zero it loads
// them once and returns.
package certwatch

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"reflect"
	"time"
)

var client = &http.Client{Timeout: 10 * time.Second}

// loadFromStore fetches the PEM blocks of the store at url.
func loadFromStore(url string) (map[string][]byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	var blocks map[string][]byte
	if err := json.NewDecoder(resp.Body).Decode(&blocks); err != nil {
		return nil, err
	}
	return blocks, nil
}

func makeCertificates(blocks map[string][]byte) ([]tls.Certificate, error) {
	var certs []tls.Certificate
	for name, pem := range blocks {
		c, err := tls.X509KeyPair(pem, pem)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		certs = append(certs, c)
	}
	return certs, nil
}

// ---- Reported (the wait after a failure is fixed; the loop is a refresh poll) ----

// watch sends the certificates on ch each time they change. It leaves after the first
// success only when refresh is zero: otherwise it polls for the life of the process, and a
// cap on its attempts would stop the refresh. Not reported as a retry without a cap, nor for its
// waits: after a failure it waits the refresh period it waits after an unchanged load.
func watch(ch chan<- []tls.Certificate, refresh time.Duration, url string, load func(string) (map[string][]byte, error)) {
	once := refresh <= 0
	if refresh < time.Second {
		refresh = time.Second
	}
	var last map[string][]byte
	for {
		next, err := load(url)
		if err != nil {
			log.Printf("cert: cannot load certificates from %s: %s", url, err)
			time.Sleep(refresh)
			continue
		}
		if reflect.DeepEqual(next, last) {
			time.Sleep(refresh)
			continue
		}
		certs, err := makeCertificates(next)
		if err != nil {
			log.Printf("cert: cannot make certificates: %s", err)
			time.Sleep(refresh)
			continue
		}
		ch <- certs
		last = next
		if once {
			return
		}
	}
}

// Start watches the store at url.
func Start(url string, refresh time.Duration) <-chan []tls.Certificate {
	ch := make(chan []tls.Certificate, 1)
	go watch(ch, refresh, url, loadFromStore)
	return ch
}

// ---- Reported ----

// loadOnce loads the certificates at start-up, trying until it succeeds: it leaves on success
// whatever its arguments say, and has no cap.
func loadOnce(url string, pause time.Duration) []tls.Certificate {
	verbose := pause > time.Second
	for { // related "certwatch.go:97: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		blocks, err := loadFromStore(url)
		if err == nil {
			certs, err := makeCertificates(blocks)
			if err == nil {
				if verbose {
					log.Printf("cert: loaded %d certificates from %s", len(certs), url)
				}
				return certs
			}
		}
		log.Printf("cert: cannot load certificates from %s: %v", url, err)
		time.Sleep(pause) // related "certwatch.go:97: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
}

// renewGrant renews a grant until it is within its grace period; a failed renewal is tried
// again after a fixed pause. The test of verbose, fixed before the loop, has both sides in the
// loop: it is no way out. Reported as a retry loop.
func renewGrant(url string, verbose bool, pause, grace time.Duration) error {
	for { // related "certwatch.go:117: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		blocks, err := loadFromStore(url)
		if err != nil {
			log.Printf("cert: renew %s: %v", url, err)
			time.Sleep(pause) // related "certwatch.go:117: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		if verbose {
			log.Printf("cert: renewed %d blocks from %s", len(blocks), url)
		}
		left, err := time.ParseDuration(string(blocks["ttl"]))
		if err != nil || left < grace {
			return err
		}
		time.Sleep(left / 2)
	}
}
