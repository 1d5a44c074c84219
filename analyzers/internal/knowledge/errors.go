package knowledge

import (
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Errors that report progress, not failure: the call did part of its work, handed it back, and
// is called again to go on (bufio.Reader.ReadSlice fills its buffer before it finds the
// delimiter). A loop that goes round on one reads on; it does not try the work again.
var progress = map[flow.FuncID]bool{
	{Pkg: "bufio", Name: "ErrBufferFull"}: true,
}

// Progress reports whether v, a package-level error variable, reports progress (see progress).
func Progress(v *types.Var) bool {
	return v != nil && v.Pkg() != nil && progress[flow.FuncID{Pkg: v.Pkg().Path(), Name: v.Name()}]
}

// Calls that run until their context is done and then return nil: done is their success, not a
// failure (Pub/Sub's Receive pulls messages until it is cancelled). A loop that goes round on
// their failure leaves when the context ends.
var endsWithContext = map[flow.FuncID]bool{
	{Pkg: "cloud.google.com/go/pubsub", Recv: "Subscription", Name: "Receive"}:  true,
	{Pkg: "cloud.google.com/go/pubsub/v2", Recv: "Subscriber", Name: "Receive"}: true,
}

// EndsWithContext reports whether fn returns nil once its context is done (see endsWithContext).
func EndsWithContext(fn *types.Func) bool {
	return fn != nil && endsWithContext[flow.ID(fn)]
}

// Error libraries whose Is and As are the standard library's (errors.Is, errors.As), and
// functions that return the error they are handed, or the one it wraps at its root: a test of
// errors.Cause(err).(T) or pkgerrors.As(err, &t) singles out an error of the call that made err.
var (
	errorsTests = map[string]bool{
		"errors":                        true,
		"github.com/pkg/errors":         true,
		"github.com/pingcap/errors":     true,
		"github.com/cockroachdb/errors": true,
		"golang.org/x/xerrors":          true,
	}
	unwrappers = map[flow.FuncID]bool{
		{Pkg: "errors", Name: "Unwrap"}:                           true,
		{Pkg: "github.com/pkg/errors", Name: "Cause"}:             true,
		{Pkg: "github.com/pkg/errors", Name: "Unwrap"}:            true,
		{Pkg: "github.com/pingcap/errors", Name: "Cause"}:         true,
		{Pkg: "github.com/cockroachdb/errors", Name: "Cause"}:     true,
		{Pkg: "github.com/cockroachdb/errors", Name: "UnwrapAll"}: true,
		{Pkg: "golang.org/x/xerrors", Name: "Unwrap"}:             true,
	}
)

// ErrorsTest reports whether id is errors.Is or errors.As, of the standard library or of a
// library whose Is and As are the same (see errorsTests).
func ErrorsTest(id flow.FuncID) bool {
	return id.Recv == "" && errorsTests[id.Pkg] && (id.Name == "Is" || id.Name == "As")
}

// Unwraps reports whether id returns the error it is handed or the one at its root (see
// unwrappers).
func Unwraps(id flow.FuncID) bool { return unwrappers[id] }

// aws-sdk-go-v2's standard retryer (aws/retry) retries the throttling and timeout codes below,
// transport errors, and answers with a 5xx status. A service's modeled errors are types of its
// types package named by their error codes; one that is none of these codes and not a server
// fault is a client fault the retryer returns at once.
const awsServices = "github.com/aws/aws-sdk-go-v2/service/"

var awsRetriedCodes = map[string]bool{
	// retry.DefaultRetryableErrorCodes
	"RequestTimeout": true, "RequestTimeoutException": true,
	// retry.DefaultThrottleErrorCodes
	"Throttling": true, "ThrottlingException": true, "ThrottledException": true, "RequestThrottledException": true,
	"TooManyRequestsException": true, "ProvisionedThroughputExceededException": true, "TransactionInProgressException": true,
	"RequestLimitExceeded": true, "BandwidthLimitExceeded": true, "LimitExceededException": true, "RequestThrottled": true,
	"SlowDown": true, "PriorRequestNotComplete": true, "EC2ThrottledException": true,
}

// UnretriedAPIError reports whether t (or the type it points to) is a modeled client fault of an
// aws-sdk-go-v2 service that the SDK's standard retryer never retries (see awsRetriedCodes);
// notFound says it names a missing resource (ResourceNotFoundException, QueueDoesNotExist).
// A modeled server fault (InternalServerError, ServiceUnavailableException) is retried on its
// 5xx status: not one.
func UnretriedAPIError(t types.Type) (unretried, notFound bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false, false
	}
	path, code := named.Obj().Pkg().Path(), named.Obj().Name()
	if !strings.HasPrefix(path, awsServices) || !strings.HasSuffix(path, "/types") {
		return false, false
	}
	if ms := types.NewMethodSet(types.NewPointer(named)); ms.Lookup(named.Obj().Pkg(), "ErrorCode") == nil || ms.Lookup(named.Obj().Pkg(), "ErrorFault") == nil {
		return false, false // not a modeled error
	}
	return unretriedCode(code)
}

// pendingErrors are the modeled errors by which a service says that an OAuth 2.0 device
// authorization (RFC 8628, 3.5) is not approved yet: authorization_pending, and slow_down,
// which asks for a longer interval. AWS IAM Identity Center's OIDC service models both.
var pendingErrors = map[string][]string{
	"github.com/aws/aws-sdk-go-v2/service/ssooidc/types": {"AuthorizationPendingException", "SlowDownException"},
}

// PendingAPIError reports whether t (or the type it points to) is a modeled error by which a
// device authorization says it is still pending (see pendingErrors): a loop that goes round
// on it waits for the user, at the interval the service gives, until the code expires.
func PendingAPIError(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && slices.Contains(pendingErrors[named.Obj().Pkg().Path()], named.Obj().Name())
}

// UnretriedAPIErrorCode is UnretriedAPIError for an error code a program compares with what
// ErrorCode returns (apiErr.ErrorCode() == "ResourceInUseException"), when t, the type whose
// method it calls, is smithy-go's APIError or a modeled error of an aws-sdk-go-v2 service.
func UnretriedAPIErrorCode(t types.Type, code string) (unretried, notFound bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || code == "" {
		return false, false
	}
	path := named.Obj().Pkg().Path()
	if path == smithyPkg && named.Obj().Name() == "APIError" || strings.HasPrefix(path, awsServices) && strings.HasSuffix(path, "/types") {
		return unretriedCode(code)
	}
	return false, false
}

const smithyPkg = "github.com/aws/smithy-go"

// unretriedCode reports whether the error code is one the standard retryer does not retry, and
// not a server fault's (see UnretriedAPIError).
func unretriedCode(code string) (unretried, notFound bool) {
	if awsRetriedCodes[code] {
		return false, false
	}
	for _, server := range []string{"Internal", "ServiceUnavailable", "ServerError", "ServiceException", "Timeout"} {
		if strings.Contains(code, server) {
			return false, false
		}
	}
	return true, strings.Contains(code, "NotFound") || strings.Contains(code, "DoesNotExist") || strings.HasPrefix(code, "NoSuch")
}

// notFoundTests are libraries' predicates that hold only for a "not found" answer from the
// server (an API object that does not exist, or not yet in the cache that answers for it).
var notFoundTests = map[flow.FuncID]bool{
	{Pkg: "k8s.io/apimachinery/pkg/api/errors", Name: "IsNotFound"}: true,
}

// NotFoundTest reports whether id is a library's test for a "not found" answer (see
// notFoundTests).
func NotFoundTest(id flow.FuncID) bool { return notFoundTests[id] }

// Errors that only this machine's own resources make: an address this process asked to
// listen on is taken (bind's EADDRINUSE), a file it asked to create exclusively exists, a
// file it reads does not exist (yet), a device or executable is busy. A loop that goes round
// only on one waits out local contention, waits for another local process, makes the
// resource itself or moves on to another local resource (the next free port): no remote
// dependency is retried.
var (
	localErrnos = map[string]bool{"EADDRINUSE": true, "EEXIST": true, "EBUSY": true, "ETXTBSY": true}
	localErrors = map[flow.FuncID]bool{
		{Pkg: "io/fs", Name: "ErrExist"}:    true,
		{Pkg: "os", Name: "ErrExist"}:       true,
		{Pkg: "io/fs", Name: "ErrNotExist"}: true,
		{Pkg: "os", Name: "ErrNotExist"}:    true,
	}
	// localErrorTests hold only for those errors (os.IsNotExist(err): fs.ErrNotExist, or a
	// *PathError, *LinkError or *SyscallError holding ENOENT).
	localErrorTests = map[flow.FuncID]bool{
		{Pkg: "os", Name: "IsNotExist"}: true,
		{Pkg: "os", Name: "IsExist"}:    true,
	}
)

// LocalErrorTest reports whether id is a predicate that holds only for an error of this
// machine's own resources (see localErrorTests).
func LocalErrorTest(id flow.FuncID) bool { return localErrorTests[id] }

// LocalErrno reports whether a constant of type t and value val is a syscall.Errno among
// localErrnos (compared by value with the platform's syscall constants).
func LocalErrno(t types.Type, val constant.Value) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || val == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "syscall" || named.Obj().Name() != "Errno" {
		return false
	}
	scope := named.Obj().Pkg().Scope()
	for name := range localErrnos {
		if k, ok := scope.Lookup(name).(*types.Const); ok && constant.Compare(k.Val(), token.EQL, val) {
			return true
		}
	}
	return false
}

// LocalErrorVar reports whether v is a package-level error variable among localErrors.
func LocalErrorVar(v *types.Var) bool {
	return v != nil && v.Pkg() != nil && localErrors[flow.FuncID{Pkg: v.Pkg().Path(), Name: v.Name()}]
}

// goGitHub matches go-github's package at any major version (github.com/google/go-github/v74/github).
var goGitHub = regexp.MustCompile(`^github\.com/google/go-github(/v[0-9]+)?/github$`)

// rateLimitErrors are SDK error types by which a server says it turned a request away for a
// rate limit, without processing it: go-github's RateLimitError (the primary limit spent)
// and AbuseRateLimitError (the secondary limit, with a Retry-After).
var rateLimitErrors = map[string]bool{"RateLimitError": true, "AbuseRateLimitError": true}

// RateLimitError reports whether t (or what it points to) is an SDK's error type for a request
// turned away by a rate limit (see rateLimitErrors): sending it again is safe whatever it does.
func RateLimitError(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && goGitHub.MatchString(named.Obj().Pkg().Path()) && rateLimitErrors[named.Obj().Name()]
}
