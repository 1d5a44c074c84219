package loops

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
)

// A test that deletes a resource while the server still answers "in use", with a new key each
// time on purpose (a stored failure would be replayed under the old one): test code, not
// reported.
func TestDeleteWhenFree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for attempt := 0; attempt < 10; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, "https://api.example.com/vpcs/vpc-1", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Idempotency-Key", uuid.NewString())
		resp, err := client.Do(req)
		if err == nil && resp.StatusCode != http.StatusConflict {
			resp.Body.Close()
			return
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	t.Fatal("vpc still in use")
}
