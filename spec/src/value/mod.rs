//! Observable values: what every backend's result is compared as.
