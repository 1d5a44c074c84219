package calls

import (
	"context"
	"testing"
	"time"
)

// A test waits for the service it started, around a call that retries: not reported.
func TestFetchWhenUp(t *testing.T) {
	s := newService("http://127.0.0.1:8080")
	ctx := context.Background()
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = s.fetch(ctx, "health"); err == nil {
			break
		}
		t.Logf("service not up yet: %v", err)
		time.Sleep(time.Second)
	}
	if err != nil {
		t.Fatal(err)
	}
}
