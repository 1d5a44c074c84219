// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/ssooidc/types (v1.30.0).
package types

// ErrorFault stands in for smithy.ErrorFault.
type ErrorFault int

// AuthorizationPendingException: the user has not approved the device yet (RFC 8628's
// authorization_pending).
type AuthorizationPendingException struct {
	Message           *string
	ErrorCodeOverride *string
}

func (e *AuthorizationPendingException) Error() string          { return e.ErrorCode() }
func (e *AuthorizationPendingException) ErrorCode() string      { return "AuthorizationPendingException" }
func (e *AuthorizationPendingException) ErrorMessage() string   { return "" }
func (e *AuthorizationPendingException) ErrorFault() ErrorFault { return 1 }

// SlowDownException: poll less often (RFC 8628's slow_down).
type SlowDownException struct {
	Message           *string
	ErrorCodeOverride *string
}

func (e *SlowDownException) Error() string          { return e.ErrorCode() }
func (e *SlowDownException) ErrorCode() string      { return "SlowDownException" }
func (e *SlowDownException) ErrorMessage() string   { return "" }
func (e *SlowDownException) ErrorFault() ErrorFault { return 1 }

// AccessDeniedException: the user refused.
type AccessDeniedException struct {
	Message           *string
	ErrorCodeOverride *string
}

func (e *AccessDeniedException) Error() string          { return e.ErrorCode() }
func (e *AccessDeniedException) ErrorCode() string      { return "AccessDeniedException" }
func (e *AccessDeniedException) ErrorMessage() string   { return "" }
func (e *AccessDeniedException) ErrorFault() ErrorFault { return 1 }
