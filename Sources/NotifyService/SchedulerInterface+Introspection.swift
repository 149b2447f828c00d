import NotifyDesktop

/// The introspection data of the scheduler's object: the same text as
/// `data/dbus/io.github.notify.Scheduler1.xml`, which `scripts/install.sh` installs to
/// `$XDG_DATA_HOME/dbus-1/interfaces` (a test keeps the two equal).
extension SchedulerInterface {
  /// The XML `Introspect` answers.
  package static let introspection = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    <!-- notify's scheduler, version 1: docs/dbus.md says what every key means. -->
    <node name="/io/github/notify/Scheduler1">
      <interface name="io.github.notify.Scheduler1">
        <!-- Schedule: 1 to 1000 requests. Which of them the 64 limit keeps is decided first,
             and only their files are read. Files are descriptors: 'attachments' (ah, at most 10
             a request, each a PNG, JPEG, GIF or WebP image of at most 10485760 bytes, 10 MiB)
             and 'soundFile' (h, a WAV, AIFF or CAF shorter than 30 s, of at most 30 s of its
             format plus 1048576 bytes, and at most 10485760). One call copies at most 67108864
             bytes (64 MiB) of files, each descriptor once however often it is named; one app
             keeps at most 268435456 bytes (256 MiB) of attachment copies. A bound passed, or a
             descriptor not open for reading or that cannot be read: Error.InvalidArgs, and
             nothing is copied, installed or stored. The reply comes once the files are copied;
             a connection's calls are answered in the order it sent them. -->
        <method name="Schedule">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="requests" type="aa{sv}" direction="in"/>
          <arg name="ids" type="as" direction="out"/>
          <arg name="discarded" type="as" direction="out"/>
        </method>
        <method name="Cancel">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="ids" type="as" direction="in"/>
        </method>
        <method name="CancelAll">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="ids" type="as" direction="out"/>
        </method>
        <method name="ListPending">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="notifications" type="aa{sv}" direction="out"/>
        </method>
        <!-- Present: the content keys of a Schedule request; its files are bounded and
             checked as Schedule's. -->
        <method name="Present">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="content" type="a{sv}" direction="in"/>
          <arg name="id" type="s" direction="out"/>
        </method>
        <method name="Withdraw">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="ids" type="as" direction="in"/>
        </method>
        <method name="GetBadge">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="count" type="u" direction="out"/>
        </method>
        <method name="SetBadge">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="count" type="u" direction="in"/>
        </method>
        <method name="GetSettings">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="settings" type="a{sv}" direction="out"/>
        </method>
        <method name="TakeLaunchResponse">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="found" type="b" direction="out"/>
          <arg name="response" type="a{sv}" direction="out"/>
        </method>
        <method name="SetCategories">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="categories" type="aa{sv}" direction="in"/>
        </method>
        <method name="GetCategories">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="categories" type="aa{sv}" direction="out"/>
        </method>
        <method name="ListDelivered">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="events" type="aa{sv}" direction="out"/>
        </method>
        <method name="ListHistory">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="limit" type="u" direction="in"/>
          <arg name="events" type="aa{sv}" direction="out"/>
        </method>
        <method name="ListHeld">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="notifications" type="aa{sv}" direction="out"/>
        </method>
        <method name="TakeResponses">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="responses" type="aa{sv}" direction="out"/>
        </method>
        <method name="RequestAuthorization">
          <arg name="app_id" type="s" direction="in"/>
          <arg name="kinds" type="u" direction="in"/>
          <arg name="granted" type="u" direction="out"/>
        </method>
        <method name="Subscribe">
          <arg name="app_id" type="s" direction="in"/>
        </method>
        <method name="Unsubscribe">
          <arg name="app_id" type="s" direction="in"/>
        </method>
        <!-- SetClientVersion: the Version this connection was written for. From 4 on it is
             answered with the errors 4 added (SoundRejected, StoreUnavailable, ServerUnavailable,
             ServerTimedOut); a connection that never calls it gets the names 3 sent for those
             failures. Returns the service's Version. -->
        <method name="SetClientVersion">
          <arg name="version" type="u" direction="in"/>
          <arg name="service_version" type="u" direction="out"/>
        </method>
        <signal name="Delivered">
          <arg name="app_id" type="s"/>
          <arg name="id" type="s"/>
          <arg name="details" type="a{sv}"/>
        </signal>
        <signal name="Activated">
          <arg name="app_id" type="s"/>
          <arg name="id" type="s"/>
          <arg name="details" type="a{sv}"/>
        </signal>
        <signal name="Dismissed">
          <arg name="app_id" type="s"/>
          <arg name="id" type="s"/>
          <arg name="reason" type="u"/>
          <arg name="details" type="a{sv}"/>
        </signal>
        <property name="Version" type="u" access="read"/>
        <!-- The errors the methods reply with, each io.github.notify.Scheduler1.Error.NAME;
             the daemon's own failures are org.freedesktop.DBus.Error.Failed. SoundRejected,
             StoreUnavailable, ServerUnavailable and ServerTimedOut (Version 4) go to a
             connection that called SetClientVersion with 4 or more. -->
        <annotation name="io.github.notify.Scheduler1.Errors" value="LimitReached InvalidTrigger UnknownId NotAllowed StoreBusy InvalidArgs SoundRejected StoreUnavailable ServerUnavailable ServerTimedOut"/>
      </interface>
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg name="xml_data" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="properties" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg name="interface_name" type="s"/>
          <arg name="changed_properties" type="a{sv}"/>
          <arg name="invalidated_properties" type="as"/>
        </signal>
      </interface>
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg name="machine_uuid" type="s" direction="out"/>
        </method>
      </interface>
    </node>
    """
}
