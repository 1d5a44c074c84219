package loops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A DNS API client whose requests go through a pacer: the pacer reads the rate-limit headers
// of every answer and tells the request loop to send again only when the answer was a 429.
// The verdict comes back as the first result of a (bool, error) method.

type pacer struct {
	mu      sync.Mutex
	gap     time.Duration
	last    time.Time
	resetAt time.Time
}

func (p *pacer) wait() {
	p.mu.Lock()
	next := p.last.Add(p.gap)
	if next.After(p.resetAt) {
		next = p.resetAt
	}
	p.last = time.Now()
	p.mu.Unlock()
	if d := time.Until(next); d > 0 {
		time.Sleep(d)
	}
}

func headerInt(h http.Header, name string, def int) (int, error) {
	v := h.Get(name)
	if v == "" {
		return def, nil
	}
	return strconv.Atoi(v)
}

// observe: (true, nil) only for a 429, after which the pacer waits for Retry-After.
func (p *pacer) observe(resp *http.Response) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if resp.StatusCode == http.StatusTooManyRequests {
		secs, err := headerInt(resp.Header, "Retry-After", 1)
		if err != nil {
			return false, fmt.Errorf("bad Retry-After: %w", err)
		}
		p.gap = time.Duration(secs) * time.Second
		p.last = time.Now()
		return true, nil
	}
	remaining, err := headerInt(resp.Header, "RateLimit-Remaining", 1)
	if err != nil {
		return false, err
	}
	reset, err := headerInt(resp.Header, "RateLimit-Reset", 0)
	if err != nil {
		return false, err
	}
	if remaining == 0 {
		p.gap = time.Duration(reset) * time.Second
	} else {
		p.gap = 0
	}
	p.resetAt = time.Now().Add(time.Duration(reset) * time.Second)
	return false, nil
}

// observeAny also sends again after a 502: the gateway may have passed the request on.
func (p *pacer) observeAny(resp *http.Response) (bool, error) {
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusBadGateway {
		return true, nil
	}
	return false, nil
}

type zoneAPI struct {
	base  string
	token string
	hc    *http.Client
	pace  pacer
}

// call sends again only what the pacer says was turned away with a 429.
func (z *zoneAPI) call(method, path string, in, out any) error {
	for {
		var body io.Reader
		if in != nil {
			b, err := json.Marshal(in)
			if err != nil {
				return err
			}
			body = bytes.NewReader(b)
		}
		req, err := http.NewRequest(method, z.base+path, body)
		if err != nil {
			return err
		}
		req.Header.Set("Auth-Token", z.token)
		req.Header.Set("Content-Type", "application/json")
		z.pace.wait()
		resp, err := z.hc.Do(req)
		if err != nil {
			return err
		}
		again, err := z.pace.observe(resp)
		if err != nil {
			resp.Body.Close()
			return err
		}
		if again {
			resp.Body.Close()
			continue
		}
		if resp.StatusCode >= 300 {
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			log.Printf("zone api: %s", data)
			return fmt.Errorf("%s %s: %d", method, path, resp.StatusCode)
		}
		if out == nil {
			resp.Body.Close()
			return nil
		}
		err = json.NewDecoder(resp.Body).Decode(out)
		resp.Body.Close()
		return err
	}
}

// CreateZone: a POST that call sends again only after a 429. Not reported.
func (z *zoneAPI) CreateZone(name string) error { // want CreateZone:"sends POST /zones without an idempotency key"
	return z.call(http.MethodPost, "/zones", map[string]string{"name": name}, nil)
}

// AddRecords sends a POST again after a 502 as well: reported.
func (z *zoneAPI) AddRecords(zone string, records []string) error {
	b, err := json.Marshal(records)
	if err != nil {
		return err
	}
	for {
		req, err := http.NewRequest(http.MethodPost, z.base+"/zones/"+zone+"/records/bulk", bytes.NewReader(b)) // related "pacer.go:152: retry loop", "pacer.go:158: sent here" // want `a POST request is retried without an idempotency key`
		if err != nil {
			return err
		}
		req.Header.Set("Auth-Token", z.token)
		resp, err := z.hc.Do(req)
		if err != nil {
			return err
		}
		again, err := z.pace.observeAny(resp)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if again {
			continue
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("add records: %d", resp.StatusCode)
		}
		return nil
	}
}

// apiError is what the zone API answers with a code and a message.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return fmt.Sprintf("Code:%d %s", e.Code, e.Message) }

// update sends a zone change set once: a POST (a create) whose refusal comes back as an apiError.
func (z *zoneAPI) update(zone string, changes []string) error {
	b, err := json.Marshal(map[string]any{"zone": zone, "changes": changes})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, z.base+"/zones/"+zone+"/changes", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Auth-Token", z.token)
	resp, err := z.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var ae apiError
		if err := json.NewDecoder(resp.Body).Decode(&ae); err != nil {
			return fmt.Errorf("zone update: %s", resp.Status)
		}
		return &ae
	}
	return nil
}

// UpdateWhenUnlocked sends the update again only while the API answers that another update
// holds the zone (its code 10205): a request refused, not applied. Not reported.
func (z *zoneAPI) UpdateWhenUnlocked(zone string, changes []string) error {
	for i := range 10 {
		err := z.update(zone, changes)
		if err == nil {
			return nil
		}
		if !strings.Contains(err.Error(), "Code:10205") {
			return err
		}
		wait := time.Duration(float64(time.Second) * math.Pow(1.8, float64(i)))
		log.Printf("zone %s locked, waiting %s", zone, wait)
		time.Sleep(wait)
	}
	return fmt.Errorf("zone %s still locked", zone)
}

// UpdateThroughOutages sends it again whenever the error says to try again: reported.
func (z *zoneAPI) UpdateThroughOutages(zone string, changes []string) error {
	for range 5 {
		err := z.update(zone, changes) // related "pacer.go:231: retry loop", "pacer.go:196: sent here by update" // want `a POST request is retried with no idempotency key; update must send one made before the retries`
		if err == nil || !strings.Contains(err.Error(), "temporarily unavailable") {
			return err
		}
		time.Sleep(2 * time.Second)
	}
	return fmt.Errorf("zone %s: gave up", zone)
}

// verify reads a record back.
func (z *zoneAPI) verify(zone, id string) error {
	req, err := http.NewRequest(http.MethodGet, z.base+"/zones/"+zone+"/records/"+id, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Auth-Token", z.token)
	resp, err := z.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return fmt.Errorf("record %s not found", id)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("verify %s: %s", id, resp.Status)
	}
	return nil
}

// CreateConfirmed creates a record and reads it back, creating it again while the read says
// it is not there: the text tested is the read's error, not the create's, so the create may
// have been applied. Reported.
func (z *zoneAPI) CreateConfirmed(zone, name string) error {
	for range 4 {
		b, err := json.Marshal(map[string]string{"name": name})
		if err != nil {
			return err
		}
		req, err := http.NewRequest(http.MethodPost, z.base+"/zones/"+zone+"/records", bytes.NewReader(b)) // related "pacer.go:266: retry loop", "pacer.go:276: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Auth-Token", z.token)
		resp, err := z.hc.Do(req)
		if err != nil {
			return err
		}
		var out struct {
			ID string `json:"id"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			return err
		}
		err = z.verify(zone, out.ID)
		if err != nil && strings.Contains(err.Error(), "not found") {
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return fmt.Errorf("record %s never appeared", name)
}
