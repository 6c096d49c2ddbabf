variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}


variable "region" {
  description = "Region of the functions and the source bucket."
  type        = string

  validation {
    condition     = can(regex("^[a-z]+-[a-z]+[0-9]+$", var.region))
    error_message = "region must look like europe-west1."
  }
}

variable "name_prefix" {
  description = "Prefix for function, subscription and bucket names, e.g. \"dev-\"; empty for none."
  type        = string
  default     = ""

  validation {
    condition     = can(regex("^[a-z0-9-]{0,20}$", var.name_prefix))
    error_message = "name_prefix may hold up to 20 lowercase letters, digits and hyphens."
  }
}

variable "functions" {
  description = "Functions from the topology module: name => source, entry point, signature, trigger, dead-letter topic."
  type = map(object({
    source            = string
    entry_point       = string
    signature         = string
    trigger           = optional(string)
    dead_letter_topic = optional(string)
  }))

  validation {
    condition     = alltrue([for f in var.functions : (f.trigger == null) == (f.dead_letter_topic == null)])
    error_message = "Every consumer function needs a dead-letter topic, and only consumers have one."
  }
}

variable "build_dir" {
  description = "Folder holding npm run build output: one <source>/ folder with index.js and package.json per function source."
  type        = string

  validation {
    condition     = length(var.build_dir) > 0
    error_message = "build_dir must not be empty."
  }
}

variable "service_accounts" {
  description = "Service account email by function name (iam module output)."
  type        = map(string)

  validation {
    condition     = alltrue([for e in values(var.service_accounts) : endswith(e, ".gserviceaccount.com")])
    error_message = "service_accounts values must be service account emails."
  }
}

variable "function_secrets" {
  description = "Configuration fields each function mounts from Secret Manager (iam module output)."
  type        = map(list(string))

  validation {
    condition     = alltrue([for l in values(var.function_secrets) : alltrue([for s in l : contains(["HMAC_SECRET", "AUTH_HS256_SECRET"], s)])])
    error_message = "function_secrets may only name HMAC_SECRET and AUTH_HS256_SECRET."
  }
}

variable "secret_ids" {
  description = "Secret id by configuration field (secrets module output)."
  type        = map(string)

  validation {
    condition     = alltrue([for f in ["HMAC_SECRET", "AUTH_HS256_SECRET"] : contains(keys(var.secret_ids), f)])
    error_message = "secret_ids must hold HMAC_SECRET and AUTH_HS256_SECRET."
  }
}

variable "topic_ids" {
  description = "Topic id by topic name, dead-letter topics included (pubsub module output)."
  type        = map(string)

  validation {
    condition     = alltrue([for id in values(var.topic_ids) : can(regex("^projects/[^/]+/topics/.+$", id))])
    error_message = "topic_ids values must look like projects/P/topics/T."
  }
}

variable "pusher_service_account" {
  description = "Email of the account push subscriptions authenticate as (iam module output)."
  type        = string

  validation {
    condition     = endswith(var.pusher_service_account, ".gserviceaccount.com")
    error_message = "pusher_service_account must be a service account email."
  }
}

variable "pubsub_service_agent" {
  description = "IAM member of the Pub/Sub service agent (pubsub module output)."
  type        = string

  validation {
    condition     = startswith(var.pubsub_service_agent, "serviceAccount:")
    error_message = "pubsub_service_agent must be a serviceAccount: member."
  }
}

variable "environment" {
  description = "Non-secret environment for every function (shared/config.ts fields, e.g. WAREHOUSE, AUTH_JWKS_URL)."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k in keys(var.environment) : !contains(["HMAC_SECRET", "AUTH_HS256_SECRET", "FAULT_INJECTION"], k)])
    error_message = "Secrets come from Secret Manager and fault injection is refused in production: do not pass them as plain environment."
  }
}

variable "http_invokers" {
  description = "IAM members allowed to invoke the HTTP functions (they also verify bearer tokens). Use allUsers for public APIs."
  type        = list(string)
  default     = ["allUsers"]

  validation {
    condition     = alltrue([for m in var.http_invokers : can(regex("^(allUsers|allAuthenticatedUsers|(user|serviceAccount|group|domain):.+)$", m))])
    error_message = "http_invokers must be IAM members (allUsers, user:, serviceAccount:, group:, domain:)."
  }
}

variable "memory" {
  description = "Memory per function instance, e.g. 512Mi."
  type        = string
  default     = "512Mi"

  validation {
    condition     = can(regex("^[0-9]+(Mi|Gi)$", var.memory))
    error_message = "memory must look like 512Mi or 1Gi."
  }
}

variable "max_instances" {
  description = "Maximum instances per function."
  type        = number
  default     = 20

  validation {
    condition     = var.max_instances >= 1 && var.max_instances <= 1000
    error_message = "max_instances must be between 1 and 1000."
  }
}

variable "min_http_instances" {
  description = "Warm instances kept for each HTTP function (0 scales to zero)."
  type        = number
  default     = 0

  validation {
    condition     = var.min_http_instances >= 0 && var.min_http_instances <= 10
    error_message = "min_http_instances must be between 0 and 10."
  }
}

variable "http_timeout_seconds" {
  description = "Request timeout of HTTP functions."
  type        = number
  default     = 60

  validation {
    condition     = var.http_timeout_seconds >= 1 && var.http_timeout_seconds <= 3600
    error_message = "http_timeout_seconds must be between 1 and 3600."
  }
}

variable "consumer_timeout_seconds" {
  description = "Timeout of Pub/Sub consumers and scheduled jobs; also their subscriptions' ack deadline (capped at 600)."
  type        = number
  default     = 540

  validation {
    condition     = var.consumer_timeout_seconds >= 10 && var.consumer_timeout_seconds <= 3600
    error_message = "consumer_timeout_seconds must be between 10 and 3600."
  }
}

variable "max_delivery_attempts" {
  description = "Deliveries before Pub/Sub moves a message to the dead-letter topic."
  type        = number
  default     = 5

  validation {
    condition     = var.max_delivery_attempts >= 5 && var.max_delivery_attempts <= 100
    error_message = "max_delivery_attempts must be between 5 and 100 (Pub/Sub limits)."
  }
}

variable "retry_minimum_backoff" {
  description = "Minimum delay before a nacked or failed push is retried, e.g. 10s."
  type        = string
  default     = "10s"

  validation {
    condition     = can(regex("^[0-9]+s$", var.retry_minimum_backoff))
    error_message = "retry_minimum_backoff must look like 10s."
  }
}

variable "retry_maximum_backoff" {
  description = "Maximum retry delay (at most 600s)."
  type        = string
  default     = "600s"

  validation {
    condition     = can(regex("^[0-9]+s$", var.retry_maximum_backoff)) && tonumber(trimsuffix(var.retry_maximum_backoff, "s")) <= 600
    error_message = "retry_maximum_backoff must look like 600s and be at most 600s."
  }
}

variable "force_destroy_sources" {
  description = "Let terraform destroy delete the source bucket with its objects."
  type        = bool
  default     = false
}

variable "labels" {
  description = "Labels applied to every resource that supports them."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.labels : can(regex("^[a-z][a-z0-9_-]{0,62}$", k)) && can(regex("^[a-z0-9_-]{0,63}$", v))])
    error_message = "Label keys and values must be lowercase letters, digits, _ or -, at most 63 characters."
  }
}

