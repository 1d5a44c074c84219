// Package ssooidc is a stub of github.com/aws/aws-sdk-go-v2/service/ssooidc (v1.30.0, public
// signatures only).
package ssooidc

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type Options struct{ RetryMaxAttempts int }
type Client struct{}

func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { return &Client{} }

type StartDeviceAuthorizationInput struct {
	ClientId     *string
	ClientSecret *string
	StartUrl     *string
}

type StartDeviceAuthorizationOutput struct {
	DeviceCode              *string
	UserCode                *string
	VerificationUriComplete *string
	ExpiresIn               int32
	Interval                int32
}

func (c *Client) StartDeviceAuthorization(ctx context.Context, params *StartDeviceAuthorizationInput, optFns ...func(*Options)) (*StartDeviceAuthorizationOutput, error) {
	return &StartDeviceAuthorizationOutput{}, nil
}

type CreateTokenInput struct {
	ClientId     *string
	ClientSecret *string
	DeviceCode   *string
	GrantType    *string
}

type CreateTokenOutput struct {
	AccessToken  *string
	ExpiresIn    int32
	RefreshToken *string
}

func (c *Client) CreateToken(ctx context.Context, params *CreateTokenInput, optFns ...func(*Options)) (*CreateTokenOutput, error) {
	return &CreateTokenOutput{}, nil
}
