// Package stophelper places orders through the retry helper of nestedretry/opsretry, which
// returns at once when an action returns its Fatal mark. A callback that marks every failure
// of its POST Fatal never sends it twice; one that hands the failure back as it is does.
package stophelper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"nestedretry/opsretry"
)

// Order is what the shop sells.
type Order struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Shop places orders.
type Shop struct {
	client *http.Client
	base   string
	log    *slog.Logger
}

func (s *Shop) post(o Order) (*http.Response, error) {
	body, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, s.base+"/orders", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return s.client.Do(req)
}

// ---- Not reported: every failure of the POST stops the helper ----

// Place waits for the shop to accept the order once; a failed POST is not sent again.
func (s *Shop) Place(o Order) error {
	return opsretry.Do(s.log, "placing order", 5, time.Second, func() error {
		resp, err := s.post(o)
		if err != nil {
			return opsretry.Fatal{Underlying: err}
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return opsretry.Fatal{Underlying: fmt.Errorf("placing order: %s", resp.Status)}
		}
		return nil
	})
}

// ---- Reported: the POST's failure goes back to the helper unmarked ----

// PlaceRetrying sends the order again when it fails.
func (s *Shop) PlaceRetrying(o Order) error {
	return opsretry.Do(s.log, "placing order", 5, time.Second, func() error {
		resp, err := s.post(o) // related "stophelper.go:64: retry callback" "stophelper.go:40: sent here by post" // want `POST /orders is retried without an idempotency key, so a retry can repeat it; post must send one made before the retries`
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return opsretry.Fatal{Underlying: fmt.Errorf("placing order: %s", resp.Status)}
		}
		return nil
	})
}
