variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
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
    condition     = alltrue([for name, f in var.functions : can(regex("^[a-z][a-z0-9-]{0,26}$", name)) && contains(["http", "cloudevent"], f.signature)])
    error_message = "Function names must be lowercase (at most 27 characters, so fn-<name> is a valid account id) and signatures http or cloudevent."
  }
}

variable "topic_names" {
  description = "Topic short name by topic name (pubsub module output)."
  type        = map(string)

  validation {
    condition     = alltrue([for n in values(var.topic_names) : can(regex("^[A-Za-z][A-Za-z0-9._~+%-]{2,254}$", n))])
    error_message = "topic_names values must be topic short names."
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

variable "dataset_id" {
  description = "BigQuery dataset the warehouse functions read or write."
  type        = string

  validation {
    condition     = can(regex("^[A-Za-z0-9_]{1,1024}$", var.dataset_id))
    error_message = "dataset_id may hold letters, digits and underscores."
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
