// Package tfhelper is a provider's helper package: its BuildToken wraps the SDK's generator.
package tfhelper

import "keyinloop/tfcloud"

// BuildToken returns a new client token.
func BuildToken() string { return tfcloud.NewUUID() }
