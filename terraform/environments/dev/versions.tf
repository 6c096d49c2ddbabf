terraform {
  required_version = ">= 1.6"

  # Provider versions are constrained by the modules that use them (modules/*/versions.tf).
  required_providers {
    google = {
      source = "hashicorp/google"
    }
  }

  # Partial configuration: terraform init -backend-config="bucket=<state bucket>" (docs/DEPLOY.md).
  backend "gcs" {
    prefix = "bias-monitor/dev"
  }
}
