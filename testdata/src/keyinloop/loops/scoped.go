package loops

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// A key whose statement uses a constant declared inside the loop: moving the statement before
// the loop would leave the constant behind, so the fix hoists the generator call alone.
func keyWithLoopConstant(ctx context.Context, orderID string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		const prefix = "refund-"
		key := prefix + orderID + "-" + uuid.NewString() // related "scoped.go:16: retry loop" "scoped.go:23: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/refunds", nil)
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("Accept", "application/json")
		var resp *http.Response
		if resp, err = client.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		log.Printf("refund %s: attempt %d: %v", orderID, attempt, err)
		time.Sleep(time.Second)
	}
	return err
}

// A type declared in the loop, used by the key's statement: the call alone again.
func keyWithLoopType(ctx context.Context, orderID string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		type token string
		key := string(token(uuid.NewString())) // related "scoped.go:39: retry loop" "scoped.go:46: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/captures/"+orderID, nil)
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Idempotency-Key", key)
		var resp *http.Response
		if resp, err = client.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
