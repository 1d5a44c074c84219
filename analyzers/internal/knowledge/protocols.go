package knowledge

import "net/http"

// Headers that name a write protocol whose requests are safe to send again: the receiver
// deduplicates what a retry repeats by the data itself. Prometheus remote write (and
// VictoriaMetrics' variant of it) sends samples keyed by series and timestamp, and its
// specification asks senders to retry 5xx and 429 answers.
var idempotentProtocols = map[string]bool{
	"X-Prometheus-Remote-Write-Version":      true,
	"X-Victoriametrics-Remote-Write-Version": true,
}

// IdempotentProtocol reports whether a request with header name set speaks a protocol whose
// writes a retry cannot duplicate (see idempotentProtocols).
func IdempotentProtocol(name string) bool {
	return idempotentProtocols[http.CanonicalHeaderKey(name)]
}
