package knowledge

import (
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// AWS SDK for Go v1 (github.com/aws/aws-sdk-go). Every operation of a service client has a form
// without a context, Op(input), which sends with context.Background(), beside
// OpWithContext(ctx, input, opts...). A session's HTTP client is http.DefaultClient, which
// has no Timeout, unless an aws.Config gives it one (HTTPClient, WithHTTPClient).

const awsV1Services = "github.com/aws/aws-sdk-go/service/"

// AWSv1Config is the configuration type whose HTTPClient field, or WithHTTPClient method,
// gives a session its HTTP client.
var AWSv1Config = flow.FuncID{Pkg: "github.com/aws/aws-sdk-go/aws", Name: "Config"}

// SDKContextForm returns the name of the form taking a context of id, a method of an SDK's
// service client that takes none (GetMetricDataWithContext for CloudWatch.GetMetricData).
// Waiters (WaitUntil...) take a maximum wait and are not among them.
func SDKContextForm(id flow.FuncID) (string, bool) {
	if id.Recv == "" || !strings.HasPrefix(id.Pkg, awsV1Services) || strings.HasSuffix(id.Name, "WithContext") || strings.HasPrefix(id.Name, "WaitUntil") {
		return "", false
	}
	return id.Name + "WithContext", true
}
