# The deployment: where it runs and whose tokens it accepts (terraform.tfvars of each environment).

variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}

variable "region" {
  description = "Region for functions, Cloud Scheduler and the source bucket, e.g. europe-west1."
  type        = string

  validation {
    condition     = can(regex("^[a-z]+-[a-z]+[0-9]+$", var.region))
    error_message = "region must look like europe-west1."
  }
}

variable "auth_jwks_url" {
  description = "JWKS URL of the identity provider whose RS256 tokens the APIs accept (AUTH_JWKS_URL)."
  type        = string

  validation {
    condition     = startswith(var.auth_jwks_url, "https://")
    error_message = "auth_jwks_url must be an https:// URL."
  }
}

variable "auth_issuer" {
  description = "Expected token issuer (AUTH_ISSUER)."
  type        = string

  validation {
    condition     = length(var.auth_issuer) > 0
    error_message = "auth_issuer must not be empty."
  }
}

variable "create_firestore_database" {
  description = "Create the (default) Firestore database; false when the project already has one."
  type        = bool
  default     = true
}

# What sets one environment apart from another. No defaults: every environment states each of them, so none
# inherits another environment's choice by omission.

variable "environment_name" {
  description = "Environment name, set as the environment label on every resource that supports labels."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,30}$", var.environment_name))
    error_message = "environment_name must be a lowercase label value such as dev or prod."
  }
}

variable "name_prefix" {
  description = "Prefix for function, subscription, scheduler job and secret names (e.g. \"dev-\"; empty for none); lets several environments share a project."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9-]{0,20}$", var.name_prefix))
    error_message = "name_prefix may hold up to 20 lowercase letters, digits and hyphens."
  }
}

variable "log_level" {
  description = "Minimum log severity (LOG_LEVEL)."
  type        = string

  validation {
    condition     = contains(["DEBUG", "INFO", "WARNING", "ERROR"], var.log_level)
    error_message = "log_level must be DEBUG, INFO, WARNING or ERROR."
  }
}

variable "max_instances" {
  description = "Maximum instances per function."
  type        = number

  validation {
    condition     = var.max_instances >= 1 && var.max_instances <= 1000
    error_message = "max_instances must be between 1 and 1000."
  }
}

variable "min_http_instances" {
  description = "Warm instances kept for each HTTP function (0 scales to zero)."
  type        = number

  validation {
    condition     = var.min_http_instances >= 0 && var.min_http_instances <= 10
    error_message = "min_http_instances must be between 0 and 10."
  }
}

variable "schedules_paused" {
  description = "Create the Cloud Scheduler jobs paused (resume with bias-monitor jobs resume NAME)."
  type        = bool
}

variable "deletion_protection" {
  description = "Protect the Firestore database and BigQuery tables against deletion."
  type        = bool
}

variable "point_in_time_recovery" {
  description = "Enable Firestore 7-day point-in-time recovery."
  type        = bool
}

variable "force_destroy_sources" {
  description = "Let terraform destroy delete the function source bucket with its objects."
  type        = bool
}

# The same in every environment unless an environment's module call overrides it.

variable "firestore_location" {
  description = "Firestore location (multi-region eur3/nam5 or a region). Cannot change after creation."
  type        = string
  default     = "eur3"

  validation {
    condition     = can(regex("^(nam5|eur3|[a-z]+-[a-z]+[0-9]+)$", var.firestore_location))
    error_message = "firestore_location must be nam5, eur3 or a region such as europe-west1."
  }
}

variable "bigquery_dataset" {
  description = "Warehouse dataset id (BIGQUERY_DATASET)."
  type        = string
  default     = "bias_monitor"

  validation {
    condition     = can(regex("^[A-Za-z0-9_]{1,1024}$", var.bigquery_dataset))
    error_message = "bigquery_dataset may hold letters, digits and underscores."
  }
}

variable "bigquery_location" {
  description = "Warehouse location (BIGQUERY_LOCATION): EU, US or a region."
  type        = string
  default     = "EU"

  validation {
    condition     = can(regex("^(EU|US|[a-z]+-[a-z]+[0-9]+)$", var.bigquery_location))
    error_message = "bigquery_location must be EU, US or a region such as europe-west1."
  }
}

variable "auth_audience" {
  description = "Expected token audience (AUTH_AUDIENCE)."
  type        = string
  default     = "bias-monitor"

  validation {
    condition     = length(var.auth_audience) > 0
    error_message = "auth_audience must not be empty."
  }
}

variable "build_dir" {
  description = "npm run build output, relative to the environment's folder (path.root)."
  type        = string
  default     = "../../../dist"

  validation {
    condition     = length(var.build_dir) > 0
    error_message = "build_dir must not be empty."
  }
}

variable "http_invokers" {
  description = "IAM members allowed to reach the HTTP functions (which also verify bearer tokens)."
  type        = list(string)
  default     = ["allUsers"]

  validation {
    condition     = alltrue([for m in var.http_invokers : can(regex("^(allUsers|allAuthenticatedUsers|(user|serviceAccount|group|domain):.+)$", m))])
    error_message = "http_invokers must be IAM members."
  }
}

variable "max_delivery_attempts" {
  description = "Deliveries before a message is dead-lettered (PUBSUB_MAX_DELIVERY_ATTEMPTS)."
  type        = number
  default     = 5

  validation {
    condition     = var.max_delivery_attempts >= 5 && var.max_delivery_attempts <= 100
    error_message = "max_delivery_attempts must be between 5 and 100."
  }
}

variable "labels" {
  description = "Extra labels for every resource that supports them."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.labels : can(regex("^[a-z][a-z0-9_-]{0,62}$", k)) && can(regex("^[a-z0-9_-]{0,63}$", v))])
    error_message = "Label keys and values must be lowercase letters, digits, _ or -, at most 63 characters."
  }
}
