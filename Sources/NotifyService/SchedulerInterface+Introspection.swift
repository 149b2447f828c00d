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
