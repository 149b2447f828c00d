#include <systemd/sd-event.h>
