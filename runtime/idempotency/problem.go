package idempotency

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Problem is an RFC 9457 problem details object, as written by the middleware
// (Content-Type: application/problem+json). Type is "about:blank" and Title the status text, so
// Code carries the machine-readable reason.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	// Code is one of the Code* constants.
	Code string `json:"code"`
}

// Problem codes written by the middleware.
const (
	CodeKeyMissing       = "idempotency_key_missing"        // 400
	CodeKeyInvalid       = "idempotency_key_invalid"        // 400
	CodeTenantInvalid    = "tenant_invalid"                 // 400
	CodeBodyUnreadable   = "request_body_unreadable"        // 400
	CodeBodyTooLarge     = "request_body_too_large"         // 413
	CodeKeyInProgress    = "idempotency_key_in_progress"    // 409
	CodeKeyTakenOver     = "idempotency_key_taken_over"     // 409
	CodeKeyReused        = "idempotency_key_reused"         // 422
	CodeStoreUnavailable = "idempotency_store_unavailable"  // 503
	CodeResponseTooLarge = "idempotency_response_too_large" // 500
)

// WriteProblem writes p as application/problem+json with p.Status. Type and Title default to
// "about:blank" and the status text.
func WriteProblem(w http.ResponseWriter, p Problem) {
	if p.Type == "" {
		p.Type = "about:blank"
	}
	if p.Title == "" {
		p.Title = http.StatusText(p.Status)
	}
	body, _ := json.Marshal(p)
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	w.Write(body)
}

// retryAfterSeconds formats d as a Retry-After value: whole seconds, rounded up, at least 1.
func retryAfterSeconds(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return strconv.FormatInt(s, 10)
}
