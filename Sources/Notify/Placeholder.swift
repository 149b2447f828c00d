// Placeholder until this target's issue lands.
