package clients

import (
	"net/http"
	"testing"
)

// ---- Not reported: test files ----

func TestGet(t *testing.T) {
	c := &http.Client{}
	c.Get("http://127.0.0.1:1")
	http.Get("http://127.0.0.1:1")
}
