unset PACKAGE_BUILD_DATE; export SOURCE_DATE_EPOCH=yesterday; pmgenmap </dev/null
