// Package cwmetrics queries CloudWatch with aws-sdk-go v1 for a canary's analysis: the
// context-free operations send with context.Background() through the session's default HTTP
// client, which has no Timeout.
package cwmetrics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
	"github.com/aws/aws-sdk-go/aws/session"
	"github.com/aws/aws-sdk-go/service/cloudwatch"
)

var ErrNoValues = errors.New("no values found")

// cloudWatchAPI is a seam for tests.
type cloudWatchAPI interface {
	GetMetricData(input *cloudwatch.GetMetricDataInput) (*cloudwatch.GetMetricDataOutput, error)
	GetMetricDataWithContext(ctx aws.Context, input *cloudwatch.GetMetricDataInput, opts ...request.Option) (*cloudwatch.GetMetricDataOutput, error)
}

type Provider struct {
	client     cloudWatchAPI
	startDelta time.Duration
	timeout    time.Duration
}

func NewProvider(region string, interval time.Duration) (*Provider, error) {
	if region == "" {
		return nil, fmt.Errorf("region not specified")
	}
	sess, err := session.NewSession(aws.NewConfig().WithRegion(region).WithMaxRetries(3))
	if err != nil {
		return nil, fmt.Errorf("error creating aws session: %w", err)
	}
	return &Provider{client: cloudwatch.New(sess), startDelta: 5 * interval, timeout: 5 * time.Second}, nil // related "cwmetrics.go:52: CloudWatch.GetMetricData sends a request without a context through it" // want `this cloudwatch\.CloudWatch has no HTTP client timeout, so a stalled server hangs CloudWatch\.GetMetricData`
}

// ---- Reported: no context, and the session's client has no Timeout ----

func (p *Provider) RunQuery(query string) (float64, error) {
	var cq []*cloudwatch.MetricDataQuery
	if err := json.Unmarshal([]byte(query), &cq); err != nil {
		return 0, fmt.Errorf("error unmarshaling query: %w", err)
	}
	end := time.Now()
	res, err := p.client.GetMetricData(&cloudwatch.GetMetricDataInput{
		EndTime:           aws.Time(end),
		StartTime:         aws.Time(end.Add(-p.startDelta)),
		MaxDatapoints:     aws.Int64(20),
		MetricDataQueries: cq,
	})
	if err != nil {
		return 0, fmt.Errorf("error requesting cloudwatch: %w", err)
	}
	if len(res.MetricDataResults) < 1 || len(res.MetricDataResults[0].Values) < 1 {
		return 0, ErrNoValues
	}
	return aws.Float64Value(res.MetricDataResults[0].Values[0]), nil
}

func Probe(sess *session.Session) error {
	cw := cloudwatch.New(sess) // related "cwmetrics.go:69: CloudWatch.GetMetricData sends a request without a context through it" // want `this cloudwatch\.CloudWatch has no HTTP client timeout, so a stalled server hangs CloudWatch\.GetMetricData`
	_, err := cw.GetMetricData(&cloudwatch.GetMetricDataInput{})
	return err
}

// ---- Not reported: the context form, with a deadline ----

func (p *Provider) IsOnline(ctx context.Context) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	_, err := p.client.GetMetricDataWithContext(ctx, &cloudwatch.GetMetricDataInput{
		EndTime:           aws.Time(time.Time{}),
		StartTime:         aws.Time(time.Time{}),
		MetricDataQueries: []*cloudwatch.MetricDataQuery{},
	})
	if err == nil {
		return true, nil
	}
	return false, err
}

// Exporter reads a dashboard's metrics through the SDK's client itself (no seam); its tests
// store a client of their own session into the same field, which users never run.
type Exporter struct {
	cw *cloudwatch.CloudWatch
}

func NewExporter(region string) (*Exporter, error) {
	sess, err := session.NewSession(aws.NewConfig().WithRegion(region))
	if err != nil {
		return nil, err
	}
	return &Exporter{cw: cloudwatch.New(sess)}, nil // related "cwmetrics.go:106: CloudWatch.GetMetricData sends a request without a context through it" "cwmetrics.go:110: CloudWatch.GetMetricData sends a request without a context through it" // want `this cloudwatch\.CloudWatch has no HTTP client timeout, so CloudWatch\.GetMetricData \(and 1 other call\) can hang`
}

// Export reads the last hour and the last day, each without a context.
func (e *Exporter) Export() (hour, day *cloudwatch.GetMetricDataOutput, err error) {
	end := time.Now()
	hour, err = e.cw.GetMetricData(&cloudwatch.GetMetricDataInput{EndTime: aws.Time(end), StartTime: aws.Time(end.Add(-time.Hour))})
	if err != nil {
		return nil, nil, err
	}
	day, err = e.cw.GetMetricData(&cloudwatch.GetMetricDataInput{EndTime: aws.Time(end), StartTime: aws.Time(end.Add(-24 * time.Hour))})
	return hour, day, err
}
