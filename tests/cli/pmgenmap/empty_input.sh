export PACKAGE_BUILD_DATE=today
: | pmgenmap
