package loops

import (
	"net/http"
	"testing"
	"time"
)

// Tests wait as they please.
func TestFlaky(t *testing.T) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = http.Get("http://127.0.0.1:1/"); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
}
