terraform {
  required_version = ">= 1.6"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 6.10, < 8.0"
    }
    archive = {
      source  = "hashicorp/archive"
      version = ">= 2.4, < 3.0"
    }
  }

  # Partial configuration: terraform init -backend-config="bucket=<state bucket>" (docs/DEPLOY.md).
  backend "gcs" {
    prefix = "bias-monitor/prod"
  }
}
