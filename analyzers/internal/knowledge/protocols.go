package knowledge

import (
	"net/http"
	"strings"
)

// Headers that name a write protocol whose requests are safe to send again: the receiver
// deduplicates what a retry repeats by the data itself. Prometheus remote write (and
// VictoriaMetrics' variant of it) sends samples keyed by series and timestamp, and its
// specification asks senders to retry 5xx and 429 answers.
var idempotentProtocols = map[string]bool{
	"X-Prometheus-Remote-Write-Version":      true,
	"X-Victoriametrics-Remote-Write-Version": true,
}

// IdempotentProtocol reports whether a request with header name set to value speaks a
// protocol whose writes a retry cannot duplicate (see idempotentProtocols). A body encoded
// with snappy is remote write's wire format, which Loki's and Tempo's push APIs and the
// older remote-write senders (without the version header) share.
func IdempotentProtocol(name, value string) bool {
	name = http.CanonicalHeaderKey(name)
	return idempotentProtocols[name] || name == "Content-Encoding" && value == "snappy"
}

// AsksForStream reports whether a request header set to value asks for an answer that is a
// stream lasting as long as the server sends: Accept: text/event-stream (Server-Sent Events).
func AsksForStream(name, value string) bool {
	return http.CanonicalHeaderKey(name) == "Accept" && strings.Contains(strings.ToLower(value), "text/event-stream")
}

// GrantField is the form field that makes a POST an OAuth 2.0 token request (RFC 6749, 4.1.3,
// 4.3.2, 4.4.2, 6): it asks the authorization server for a token, which a retry asks for
// again without any other effect.
const GrantField = "grant_type"

// IsGrantField reports whether a form field, JSON key or JSON tag names the grant type: RFC
// 6749's grant_type, or grantType, the spelling some providers' JSON token endpoints take
// (DingTalk's).
func IsGrantField(name string) bool { return name == GrantField || name == "grantType" }

// TokenIssuerClient reports whether path is a package of an OAuth 2.0 client library whose
// every request goes to the authorization server's token endpoint: golang.org/x/oauth2 and its
// internal package, which sends the form its callers (clientcredentials, jwt, Config.Exchange,
// PasswordCredentialsToken) fill with the grant type.
func TokenIssuerClient(path string) bool {
	return path == "golang.org/x/oauth2" || path == "golang.org/x/oauth2/internal"
}

// CredentialAction reports whether a query-protocol request whose form sets key to value
// only asks for temporary credentials: AWS STS's Action=AssumeRole... (and the MinIO STS
// variants, AssumeRoleWithLDAPIdentity, ...), GetSessionToken, GetFederationToken. As a
// token request, a retry asks for credentials again without any other effect.
func CredentialAction(key, value string) bool {
	return key == "Action" && (strings.HasPrefix(value, "AssumeRole") || value == "GetSessionToken" || value == "GetFederationToken")
}

// Session settings that make a database server end a statement that runs too long: a
// transaction or connection on which the program sets one bounds every later statement.
var sessionTimeouts = []string{"statement_timeout", "max_execution_time"}

// SetsSessionTimeout reports whether sql, a statement's text, sets a statement timeout for
// the session (SET statement_timeout = '30s', SET SESSION max_execution_time = 30000).
func SetsSessionTimeout(sql string) bool {
	s := strings.ToLower(sql)
	if !strings.Contains(s, "set ") {
		return false
	}
	for _, t := range sessionTimeouts {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}
