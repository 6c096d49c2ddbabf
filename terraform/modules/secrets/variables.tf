variable "project_id" {
  description = "Google Cloud project that holds the secrets."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}

variable "name_prefix" {
  description = "Prefix for secret ids, e.g. \"dev-\"; empty for none."
  type        = string
  default     = ""

  validation {
    condition     = can(regex("^[a-z0-9-]{0,20}$", var.name_prefix))
    error_message = "name_prefix may hold up to 20 lowercase letters, digits and hyphens."
  }
}

variable "labels" {
  description = "Labels applied to every secret."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.labels : can(regex("^[a-z][a-z0-9_-]{0,62}$", k)) && can(regex("^[a-z0-9_-]{0,63}$", v))])
    error_message = "Label keys and values must be lowercase letters, digits, _ or -, at most 63 characters."
  }
}
