// Package ssologin signs a CLI in to AWS IAM Identity Center with the OAuth device flow (RFC
// 8628): it polls CreateToken at the interval the service gave until the user approves, the
// service answering AuthorizationPendingException (authorization_pending) meanwhile. The
// interval is the service's to set and the code expires: a wait for a state, not a retry of a
// failure, so a fixed interval is right. A loop that goes round on any other error of the
// service, at a fixed pause, is reported.
package ssologin

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssooidc"
	ssooidctypes "github.com/aws/aws-sdk-go-v2/service/ssooidc/types"
)

var ErrExpired = errors.New("device authorization expired before it was approved")

type PollConfig struct {
	Every  time.Duration
	Expiry time.Duration
}

func pollConfig(auth *ssooidc.StartDeviceAuthorizationOutput) PollConfig {
	return PollConfig{
		Every:  time.Duration(auth.Interval) * time.Second,
		Expiry: time.Duration(auth.ExpiresIn) * time.Second,
	}
}

// Login starts the device flow and waits for the user's approval.
func Login(ctx context.Context, c *ssooidc.Client, clientID, secret, startURL string) (*ssooidc.CreateTokenOutput, error) {
	auth, err := c.StartDeviceAuthorization(ctx, &ssooidc.StartDeviceAuthorizationInput{
		ClientId: &clientID, ClientSecret: &secret, StartUrl: &startURL,
	})
	if err != nil {
		return nil, fmt.Errorf("starting device authorization: %w", err)
	}
	log.Printf("open %s to approve this device", aws.ToString(auth.VerificationUriComplete))
	return pollToken(ctx, c, clientID, secret, aws.ToString(auth.DeviceCode), pollConfig(auth))
}

// pollToken asks for the token until the user approved the device or the code expired.
func pollToken(ctx context.Context, c *ssooidc.Client, clientID, secret, deviceCode string, cfg PollConfig) (*ssooidc.CreateTokenOutput, error) {
	start := time.Now()
	for {
		time.Sleep(cfg.Every)
		token, err := c.CreateToken(ctx, &ssooidc.CreateTokenInput{
			ClientId:     &clientID,
			ClientSecret: &secret,
			DeviceCode:   &deviceCode,
			GrantType:    aws.String("urn:ietf:params:oauth:grant-type:device_code"),
		})
		var pending *ssooidctypes.AuthorizationPendingException
		if err == nil {
			return token, nil
		} else if !errors.As(err, &pending) {
			return nil, err
		}
		if time.Now().After(start.Add(cfg.Expiry)) {
			return nil, ErrExpired
		}
	}
}

// Refresh asks for the token again on any failure but a refusal, at a fixed pause: that is
// a retry of whatever failed, and clients that failed together retry together.
func Refresh(ctx context.Context, c *ssooidc.Client, clientID, secret, deviceCode string) (*ssooidc.CreateTokenOutput, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		token, err := c.CreateToken(ctx, &ssooidc.CreateTokenInput{
			ClientId: &clientID, ClientSecret: &secret, DeviceCode: &deviceCode,
			GrantType: aws.String("refresh_token"),
		})
		if err == nil {
			return token, nil
		}
		var denied *ssooidctypes.AccessDeniedException
		if errors.As(err, &denied) || time.Now().After(deadline) {
			return nil, err
		}
		log.Printf("refreshing the token: %v", err)
		time.Sleep(5 * time.Second) // related "ssologin.go:74: retry loop" // want `retry loop waits a fixed 5s between attempts, so clients that failed together retry together; add jitter`
	}
}
