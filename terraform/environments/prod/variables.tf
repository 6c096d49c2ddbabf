# This deployment's target (terraform.tfvars). Each is validated by the module variable of the same name in
# modules/bias_monitor; every other setting is an argument of the module call in main.tf.

variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string
}

variable "region" {
  description = "Region for functions, Cloud Scheduler and the source bucket, e.g. europe-west1."
  type        = string
}

variable "auth_jwks_url" {
  description = "JWKS URL of the identity provider whose RS256 tokens the APIs accept (AUTH_JWKS_URL)."
  type        = string
}

variable "auth_issuer" {
  description = "Expected token issuer (AUTH_ISSUER)."
  type        = string
}
