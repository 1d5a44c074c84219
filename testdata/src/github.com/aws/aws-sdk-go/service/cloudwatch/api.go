// Package cloudwatch is a stub of github.com/aws/aws-sdk-go/service/cloudwatch.
package cloudwatch

import (
	"time"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
	"github.com/aws/aws-sdk-go/aws/session"
)

type CloudWatch struct{}

func New(p *session.Session, cfgs ...*aws.Config) *CloudWatch { return &CloudWatch{} }

type MetricDataQuery struct {
	Id         *string
	Expression *string
}

type MetricDataResult struct{ Values []*float64 }

type GetMetricDataInput struct {
	StartTime         *time.Time
	EndTime           *time.Time
	MaxDatapoints     *int64
	MetricDataQueries []*MetricDataQuery
}

type GetMetricDataOutput struct{ MetricDataResults []*MetricDataResult }

func (c *CloudWatch) GetMetricData(input *GetMetricDataInput) (*GetMetricDataOutput, error) {
	return c.GetMetricDataWithContext(aws.Context(nil), input)
}

func (c *CloudWatch) GetMetricDataWithContext(ctx aws.Context, input *GetMetricDataInput, opts ...request.Option) (*GetMetricDataOutput, error) {
	return &GetMetricDataOutput{}, nil
}
