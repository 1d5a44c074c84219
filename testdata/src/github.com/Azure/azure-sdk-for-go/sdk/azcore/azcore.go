// Package azcore is a stub of github.com/Azure/azure-sdk-for-go/sdk/azcore.
package azcore

import "github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

type ClientOptions = policy.ClientOptions

type TokenCredential interface{}
