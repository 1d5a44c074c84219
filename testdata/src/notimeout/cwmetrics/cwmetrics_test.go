package cwmetrics

import (
	"testing"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
	"github.com/aws/aws-sdk-go/aws/session"
	"github.com/aws/aws-sdk-go/service/cloudwatch"
)

// A test's stand-in stored in the seam: not what users run, so the seam still holds the
// SDK's client for the model.
type fakeCloudWatch struct {
	out *cloudwatch.GetMetricDataOutput
	err error
}

func (f fakeCloudWatch) GetMetricData(*cloudwatch.GetMetricDataInput) (*cloudwatch.GetMetricDataOutput, error) {
	return f.out, f.err
}

func (f fakeCloudWatch) GetMetricDataWithContext(aws.Context, *cloudwatch.GetMetricDataInput, ...request.Option) (*cloudwatch.GetMetricDataOutput, error) {
	return f.out, f.err
}

func TestRunQueryEmpty(t *testing.T) {
	p := &Provider{client: fakeCloudWatch{out: &cloudwatch.GetMetricDataOutput{}}}
	if _, err := p.RunQuery(`[]`); err == nil {
		t.Fatal("want an error for no data")
	}
}

func TestExportLocal(t *testing.T) {
	e := &Exporter{cw: cloudwatch.New(session.Must(session.NewSession(aws.NewConfig().WithRegion("local"))))}
	if _, _, err := e.Export(); err != nil {
		t.Skip("no local CloudWatch:", err)
	}
}
