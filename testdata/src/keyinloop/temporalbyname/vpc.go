// Package temporalbyname keeps a network service's activities, each a method Execute on its
// own type, and the workflow that runs them by their registered names; the worker's main
// registers them in another package. The activity is retried by the server, so a client
// token made inside it is new on every attempt.
package temporalbyname

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

const (
	DeleteVPCActivityName = "DeleteVPC"
	TagVPCActivityName    = "TagVPC"
)

type DeleteVPCInput struct {
	VPCID  string
	Region string
}

type TagVPCInput struct {
	VPCID string
	Tags  map[string]string
}

// deleteVPCRequest is the cloud API's input; ClientRequestToken makes a retried call safe.
type deleteVPCRequest struct {
	VpcId              *string
	ClientRequestToken *string
}

type cloudAPI interface {
	DeleteVpc(ctx context.Context, in *deleteVPCRequest) error
	TagVpc(ctx context.Context, id string, tags map[string]string) error
}

type DeleteVPCActivity struct {
	API cloudAPI
}

// Execute uses nothing of the activity package: only the run by name says what it is.
func (a *DeleteVPCActivity) Execute(ctx context.Context, in DeleteVPCInput) error {
	token := uuid.NewString() // related "vpc.go:50: workflow activity" "vpc.go:87: run again by Temporal" "vpc.go:52: sent as field ClientRequestToken" // want `uuid\.NewString makes a new idempotency key per run; derive it from the workflow and activity IDs`
	req := &deleteVPCRequest{VpcId: &in.VPCID, ClientRequestToken: &token}
	if err := a.API.DeleteVpc(ctx, req); err != nil {
		slog.Error("delete vpc", "vpc", in.VPCID, "region", in.Region, "error", err)
		return fmt.Errorf("delete vpc %s: %w", in.VPCID, err)
	}
	return nil
}

// ---- Not reported: its token comes from the activity's info ----

type TagVPCActivity struct {
	API cloudAPI
}

func (a *TagVPCActivity) Execute(ctx context.Context, in TagVPCInput) error {
	info := activity.GetInfo(ctx)
	tags := map[string]string{"request": info.WorkflowExecution.ID + "/" + info.ActivityID}
	for k, v := range in.Tags {
		tags[k] = v
	}
	return a.API.TagVpc(ctx, in.VPCID, tags)
}

func TeardownWorkflow(ctx workflow.Context, vpcID, region string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumAttempts:    10,
		},
	})
	if err := workflow.ExecuteActivity(ctx, TagVPCActivityName, TagVPCInput{VPCID: vpcID, Tags: map[string]string{"state": "deleting"}}).Get(ctx, nil); err != nil {
		return err
	}
	return workflow.ExecuteActivity(ctx, DeleteVPCActivityName, DeleteVPCInput{VPCID: vpcID, Region: region}).Get(ctx, nil)
}
