// Package cwmetricsclient gives its aws-sdk-go session an HTTP client with a Timeout: the
// context-free operations are bounded by it.
package cwmetricsclient

import (
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/session"
	"github.com/aws/aws-sdk-go/service/cloudwatch"
)

type Provider struct {
	client *cloudwatch.CloudWatch
}

func NewProvider(region string) (*Provider, error) {
	sess, err := session.NewSession(&aws.Config{
		Region:     aws.String(region),
		HTTPClient: &http.Client{Timeout: 10 * time.Second},
	})
	if err != nil {
		return nil, err
	}
	return &Provider{client: cloudwatch.New(sess)}, nil
}

func (p *Provider) Latest() (*cloudwatch.GetMetricDataOutput, error) {
	end := time.Now()
	return p.client.GetMetricData(&cloudwatch.GetMetricDataInput{EndTime: aws.Time(end), StartTime: aws.Time(end.Add(-time.Hour))})
}
