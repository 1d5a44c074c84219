// Package defaulttimeout gives http.DefaultClient a timeout: its calls are bounded.
package defaulttimeout

import (
	"net/http"
	"time"
)

func init() {
	http.DefaultClient.Timeout = 10 * time.Second
}

// ---- Not reported ----

func get(u string) {
	http.Get(u)
}

func do(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	http.DefaultClient.Do(req)
}
