// The embedding library re-exports the model and the store so that one
// `import Notify` gives an app everything it needs.
@_exported import NotifyCore
@_exported import NotifyDesktop
@_exported import NotifySound
@_exported import NotifyStore
@_exported import NotifyZones
