package knowledge

import "testing"

func TestService(t *testing.T) {
	for pkg, want := range map[string]string{
		"github.com/aws/aws-sdk-go-v2/service/s3":                      "AWS s3",
		"github.com/aws/aws-sdk-go-v2/service/dynamodb/types":          "AWS dynamodb",
		"cloud.google.com/go/storage":                                  "Cloud Storage",
		"cloud.google.com/go/pubsub/apiv1":                             "Cloud Pub/Sub",
		"cloud.google.com/go/bigquery":                                 "Google Cloud bigquery",
		"github.com/minio/minio-go/v7":                                 "S3 via minio-go",
		"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob":         "Azure Storage (azblob)",
		"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus": "Azure messaging",
		"github.com/minio/minio-go-extra":                              "", // not minio-go
		"cloud.google.com/go/":                                         "",
		"github.com/stripe/stripe-go/v82":                              "",
		"github.com/aws/aws-sdk-go-v2/service/":                        "",
	} {
		if got := Service(pkg); got != want {
			t.Errorf("Service(%q) = %q, want %q", pkg, got, want)
		}
	}
}
