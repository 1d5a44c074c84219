package loops

import (
	"errors"
	"log"
	"time"
)

// Failover: each round asks the next candidate until the supply runs dry (a broker that failed
// is dropped, the least loaded of the others is next). One operation per candidate, not a
// retry of one server.
type broker struct{ addr string }

func (b *broker) Fetch(req string) (string, error) { return "", nil }
func (b *broker) Close() error                     { return nil }

type cluster struct{ brokers []*broker }

func (c *cluster) leastLoaded() *broker {
	if len(c.brokers) == 0 {
		return nil
	}
	return c.brokers[0]
}

func (c *cluster) drop(b *broker) { c.brokers = c.brokers[1:] }

func (c *cluster) metadata(req string, deadline time.Time) (string, error) {
	var errs []error
	for b := c.leastLoaded(); b != nil && time.Now().Before(deadline); b = c.leastLoaded() {
		resp, err := b.Fetch(req)
		if err == nil {
			return resp, nil
		}
		log.Printf("broker %s: %v", b.addr, err)
		_ = b.Close()
		errs = append(errs, err)
		c.drop(b)
	}
	return "", errors.Join(errs...)
}

// The same broker asked again after a failure: a retry.
func (c *cluster) fetchFrom(b *broker, req string) (string, error) { // want fetchFrom:`retries: retry loop at failover.go:46, attempts=3`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=none`
		var resp string
		if resp, err = b.Fetch(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return "", err
}
